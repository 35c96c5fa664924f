import { condition, defineQuery, defineUpdate, setHandler } from '@temporalio/workflow';

/** The bare figures' workflow: waits like a case does, answers a trivial Update and Query. */
export const bump = defineUpdate<number, [{ by: number }]>('Bump');
export const peek = defineQuery<number>('Peek');

export async function bareCase(input: { id: string }): Promise<string> {
  let count = 0;
  setHandler(bump, ({ by }) => (count += by));
  setHandler(peek, () => count);
  await condition(() => count < 0);
  return input.id;
}
