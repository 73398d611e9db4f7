/** no-debug-leftovers on its labelled corpus, in-process and exact (see test/catalog/corpus.test.ts). */
import { exactCorpusTest } from './exact.ts';

exactCorpusTest('no-debug-leftovers');
