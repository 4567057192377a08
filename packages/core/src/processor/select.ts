import type { Env } from '../environment.js';
import type { Processor } from './connector.js';
import { createSimulator } from './simulator.js';
import { createUnavailableProcessor } from './unavailable.js';

/** What REMIT_PROCESSOR may name. No real connector ships yet; one joins this list when it does. */
export const PROCESSOR_NAMES = ['simulator', 'none'] as const;
export type ProcessorName = (typeof PROCESSOR_NAMES)[number];

/** REMIT_PROCESSOR unset: the simulator in sandbox; in production none, so payments are refused. */
export const defaultProcessorName = (env: Env): ProcessorName => (env === 'sandbox' ? 'simulator' : 'none');

/**
 * The processor a configuration names. The simulator approves test cards without moving money,
 * so a production server refuses to start with it rather than take payments it cannot make.
 */
export function createProcessor(name: string | undefined, env: Env): Processor {
  const chosen = name === undefined || name === '' ? defaultProcessorName(env) : name;
  if (!(PROCESSOR_NAMES as readonly string[]).includes(chosen)) {
    throw new Error(`REMIT_PROCESSOR must be one of ${PROCESSOR_NAMES.join(', ')}, not ${chosen}`);
  }
  if (chosen === 'simulator' && env === 'production') {
    throw new Error('REMIT_PROCESSOR=simulator is the sandbox simulator and cannot process live payments; production needs a real connector');
  }
  return chosen === 'simulator' ? createSimulator() : createUnavailableProcessor();
}
