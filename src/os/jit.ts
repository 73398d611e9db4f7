/**
 * JavaScriptCore's JIT policy. The executable starts with the JIT reluctant to compile (`STARTUP_JIT_POLICY`,
 * scripts/build-options.ts): a hook call that ends in `{}` runs almost every function once, and compiling them is
 * CPU spent for nothing (bench/hook-cost.ts). A hot loop still gets compiled, only later (the scale multiplies the
 * tier-up thresholds), so a hook call that runs validators keeps it too: putting the normal policy back there was
 * measured to cost memory and save no CPU (the 1 MB Write row). Every other command may run long (a registry server,
 * `avp check` over a whole diff) and gets the normal policy at its start. The policy only changes when code gets
 * compiled, never what it does.
 */
export function normalJit(): void {
  Bun.unsafe.setJITPolicy(1);
}
