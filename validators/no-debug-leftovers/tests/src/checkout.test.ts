// A test file: debugging output in tests is let through (no annotation: this case must pass).
import { checkout } from './checkout';
console.log(checkout({ total: 3 }));
