/**
 * The Worker with the tests' partners form registered (partners-form.ts): its entry in
 * tests/integration/third-form.test.ts. The form registers before the Worker's modules load.
 */
import './partners-form.ts';

export { default, AirtableDesk } from '#src/server/worker.ts';
