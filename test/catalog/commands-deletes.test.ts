/**
 * dangerous-commands' rules on files and the machine (validators/dangerous-commands/scripts/files.ts), verdict by
 * verdict: recursive and system-file deletes, find, shred, mv away, permissions, disk writes and machine stops, each
 * beside the look-alikes that must run. Exact verdicts: test/catalog/commands-verdict.ts.
 */
import { describe, test } from 'bun:test';
import { expectVerdicts } from './commands-verdict.ts';

describe('dangerous-commands: deletes, moves and permissions', () => {
  test('rm, unlink, truncate, find, shred and mv of what the machine or the user cannot lose', () => {
    expectVerdicts([
      'rm -rf --no-preserve-root /tmp/x → destructive-delete/rm-no-preserve-root: rm --no-preserve-root disables the safeguard against deleting /',
      'rm -r ../other → destructive-delete/delete-outside-project: rm -r ../other would delete /work/other, outside the project',
      'rm -rf /work/app → destructive-delete/rm-recursive: rm -r /work/app would delete the project directory',
      'rm /etc/passwd → destructive-delete/system-file: rm /etc/passwd destroys the system file /etc/passwd',
      'rm -f ./etc/passwd →',
      'unlink /etc/shadow → destructive-delete/system-file: unlink /etc/shadow destroys the system file /etc/shadow',
      'rm /usr/bin/env x → destructive-delete/system-file: rm /usr/bin/env destroys the system file /usr/bin/env',
      'find / -name x -exec rm {} + → destructive-delete/find-delete: find / … -exec rm would delete files across the whole file system',
      'find / -name x -exec echo rm {} + →',
      'find /tmp/x -exec rm {} + →',
      'find . -delete → destructive-delete/find-delete: find . … -delete would delete files across the project directory',
      'find -delete → destructive-delete/find-delete: find . … -delete would delete files across the project directory',
      'find ( -name a ) -delete →',
      'find ! -name a -delete →',
      'find . ! -name a -delete →',
      'find $X -delete →',
      "find /work/app -name '*.pyc' -delete →",
      "find /work/app/src -name '*.pyc' -delete →",
      "find /work/application -name '*.pyc' -delete → destructive-delete/find-delete: find /work/application … -delete would delete files across /work/application, outside the project",
      "find /work -name '*.pyc' -delete → destructive-delete/find-delete: find /work … -delete would delete files across /work, which holds the project",
      "find .git -name x -delete → destructive-delete/find-delete: find .git … -delete would delete files across the project's repository history (.git)",
      "find ../other -name '*.pyc' -delete → destructive-delete/find-delete: find ../other … -delete would delete files across /work/other, outside the project",
      'find ../other -delete → destructive-delete/find-delete: find ../other … -delete would delete files across /work/other, outside the project',
      "find . -name '*' -delete → destructive-delete/find-delete: find . … -delete would delete files across the project directory",
      'find ~ -name x -delete → destructive-delete/find-delete: find ~ … -delete would delete files across a home directory',
      'shred -u -n 3 ../secret → destructive-delete/shred: shred ../secret would destroy /work/secret, outside the project beyond recovery',
      'shred 3 x →',
      'mv ~ /tmp/x → destructive-delete/mv-away: mv ~ moves a home directory away',
      'mv -t /tmp ~ → destructive-delete/mv-away: mv ~ moves a home directory away',
      'mv /etc /etc.old → destructive-delete/mv-away: mv /etc moves the system directory /etc away',
      'mv build /tmp/x →',
      'crontab -r → destructive-delete/crontab-remove: crontab -r deletes every scheduled job without asking',
      'crontab -l →',
      'crontab -ir → destructive-delete/crontab-remove: crontab -r deletes every scheduled job without asking',
      'mv --target-directory=/tmp x ~ → destructive-delete/mv-away: mv ~ moves a home directory away',
      'mv -t /tmp x y →',
      'rm -rf ./build /etc → destructive-delete/rm-recursive: rm -r /etc would delete the system directory /etc',
      'shred /dev/sda → disk-write/shred: shred /dev/sda destroys the data on that device',
      'rm -r -- -x / → destructive-delete/rm-recursive: rm -r / would delete the whole file system',
    ]);
  });

  test('chmod, chown and chgrp of system paths, homes and the whole file system; world-writable modes', () => {
    expectVerdicts([
      'chmod -R 777 dist → chmod-world-writable/chmod-world-writable: chmod -R 777 dist makes everything under it writable by every user',
      'chmod 777 /etc/x → chmod-world-writable/chmod-world-writable: chmod 777 /etc/x makes everything under it writable by every user',
      'chmod 777 dist →',
      'chmod o+w,g+w dist →',
      'chmod -R a+rwx . → chmod-world-writable/chmod-world-writable: chmod -R a+rwx . makes everything under it writable by every user',
      'chmod ug+w file →',
      'chmod 0777 ~/x →',
      "chown -R me / → system-permissions/chown-recursive-system: chown -R me / changes the owner of the whole file system, which breaks the system or other users' files",
      'chown -R me /work/app →',
      'chown -R me /work/app/data →',
      'chown me /etc/passwd →',
      "chgrp -R staff /usr/local → system-permissions/chgrp-recursive-system: chgrp -R staff /usr/local changes the owner of system path /usr/local, which breaks the system or other users' files",
      "chmod -R 755 /var/www → system-permissions/chmod-recursive-system: chmod -R 755 /var/www changes the permissions of system path /var/www, which breaks the system or other users' files",
      "chmod -R 755 ~ → system-permissions/chmod-recursive-system: chmod -R 755 ~ changes the permissions of a home directory, which breaks the system or other users' files",
      'chown -R me ./x →',
      "cd / && chown -R me etc → system-permissions/chown-recursive-system: chown -R me etc changes the owner of the system directory /etc, which breaks the system or other users' files",
      'chmod -R 644 /work/app/src →',
      'chmod -R 755 $X →',
    ]);
  });

  test('from /, relative paths are judged where they land', () => {
    expectVerdicts(
      [
        'rm -f etc/passwd → destructive-delete/system-file: rm etc/passwd destroys the system file /etc/passwd',
        'truncate -s0 etc/hosts → destructive-delete/system-file: truncate etc/hosts destroys the system file /etc/hosts',
        'chown -R me etc →',
        'chown -R me /work/app →',
        'rm -rf etc → destructive-delete/rm-recursive: rm -r etc would delete the system directory /etc',
      ],
      { cwd: '/' },
    );
  });
});

describe('dangerous-commands: disks and the machine', () => {
  test('raw device writes, disk tools, sysrq; reads, images, listings and dry runs pass', () => {
    expectVerdicts([
      'echo x > /proc/sysrq-trigger → machine-stop/sysrq: writing /proc/sysrq-trigger crashes or reboots the machine at once',
      'cat < /proc/sysrq-trigger →',
      'echo b >> /proc/sysrq-trigger → machine-stop/sysrq: writing /proc/sysrq-trigger crashes or reboots the machine at once',
      'cat x > /dev/sda → disk-write/redirect-device: redirection into the block device /dev/sda overwrites a disk',
      'cat < /dev/sda →',
      'dd if=x of=/dev/nvme0n1 → disk-write/dd-device: dd of=/dev/nvme0n1 overwrites a disk',
      'dd if=/dev/sda of=disk.img →',
      'mkfs.ext4 /dev/sdb1 → disk-write/mkfs.ext4: mkfs.ext4 /dev/sdb1 destroys the data on that device',
      'mkfs.ext4 -L data /dev/sdb1 → disk-write/mkfs.ext4: mkfs.ext4 … /dev/sdb1 destroys the data on that device',
      'mkfs.ext4 image.img →',
      'wipefs -a /dev/sdb → disk-write/wipefs: wipefs … /dev/sdb destroys the data on that device',
      'wipefs -n /dev/sdb →',
      'fdisk -l /dev/sda →',
      'diskutil eraseDisk APFS X disk2 → disk-write/diskutil-erase: diskutil eraseDisk erases a whole disk or volume',
      'diskutil list →',
      'diskutil partitionDisk disk2 → disk-write/diskutil-erase: diskutil partitionDisk erases a whole disk or volume',
      'badblocks /dev/sda →',
      'badblocks -wsv /dev/sda → disk-write/badblocks: badblocks … /dev/sda destroys the data on that device',
      'hdparm -I /dev/sda →',
      'hdparm --security-erase x /dev/sda → disk-write/hdparm: hdparm … /dev/sda destroys the data on that device',
      'zpool destroy tank → disk-write/zpool: zpool destroy destroys the data on that device',
      'zpool status tank →',
      'newfs_apfs disk3 → disk-write/newfs_apfs: newfs_apfs disk3 destroys the data on that device',
      'shred /dev/sda → disk-write/shred: shred /dev/sda destroys the data on that device',
    ]);
  });

  test('shutdown, reboot, init 0, systemctl poweroff, kill -9 -1; restarts, runlevels and single kills pass', () => {
    expectVerdicts([
      'shutdown -h now → machine-stop/shutdown: shutdown stops the machine every session and service runs on',
      'reboot --help →',
      'init 0 → machine-stop/init: init stops the machine every session and service runs on',
      'init 3 →',
      'telinit 6 → machine-stop/telinit: telinit stops the machine every session and service runs on',
      'systemctl reboot → machine-stop/systemctl-power: systemctl reboot stops the machine',
      'systemctl restart nginx →',
      'kill -9 -1 → machine-stop/kill-all: kill -9 -1 kills every process of the user, the agent included',
      'kill -1 1234 →',
      'kill -s KILL -1 → machine-stop/kill-all: kill -9 -1 kills every process of the user, the agent included',
      'kill -9 1234 →',
    ]);
  });
});

describe('dangerous-commands: look-alikes of deletes, permissions, disks and machine stops', () => {
  test('find without a start, mv -t, several targets, other commands with the same words', () => {
    expectVerdicts([
      'find -exec rm -f {} + → destructive-delete/find-delete: find . … -exec rm would delete files across the project directory',
      'find ! -type d -delete → destructive-delete/find-delete: find . … -delete would delete files across the project directory',
      'mv -t / notes.txt →',
      'mv notes.txt / →',
      'mv "$OUT" /tmp/x →',
      'chmod -R u+x,o+w dist → chmod-world-writable/chmod-world-writable: chmod -R u+x,o+w dist makes everything under it writable by every user',
      'grep -R needle /etc →',
      'chown -R 1002 dist →',
      'chmod -R 777 a b → chmod-world-writable/chmod-world-writable: chmod -R 777 a b makes everything under it writable by every user',
      'echo of=/dev/sda →',
      'grep partition /dev/sda →',
      'fdisk destroy →',
      'sleep 6 →',
      'echo reboot →',
      'ls -1 -s →',
      'find \\( -type f \\) -delete → destructive-delete/find-delete: find . … -delete would delete files across the project directory',
      "find '(' -name a ')' -delete →",
    ]);
  });

  test('without a project root absolute paths are still judged; a project under /home or /var owns its files', () => {
    expectVerdicts(
      [
        'find /etc -name x -delete → destructive-delete/find-delete: find /etc … -delete would delete files across the system directory /etc',
        "chown -R me / → system-permissions/chown-recursive-system: chown -R me / changes the owner of the whole file system, which breaks the system or other users' files",
      ],
      { project: null },
    );
    expectVerdicts(["find /home/dev -name '*.pyc' -delete →"], { cwd: '/home', project: '/home' });
    expectVerdicts(
      [
        'chown -R www-data /var/www/app/storage →',
        "chown -R www-data /var/www → system-permissions/chown-recursive-system: chown -R www-data /var/www changes the owner of /var/www, which holds the project, which breaks the system or other users' files",
      ],
      { cwd: '/var/www/app', project: '/var/www/app' },
    );
  });
});
