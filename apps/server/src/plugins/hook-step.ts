import type { HookHandlerDoneFunction } from 'fastify';

/**
 * The async part of a callback-style hook: `done()` once it resolves, `done(err)` if it rejects
 * (a rejection without an error still fails, as Fastify does for async hooks). Hooks that usually
 * have nothing to do answer `done()` at once and come here only when they must wait: a hook that
 * is an `async` function costs a promise and its callbacks on every request.
 */
export function hookStep(step: Promise<unknown>, done: HookHandlerDoneFunction): void {
  step.then(
    () => done(),
    (err: unknown) => done((err as Error | undefined) ?? new Error('A hook failed without an error.')),
  );
}
