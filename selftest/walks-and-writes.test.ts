// With tests side by side, none of the suite's writes goes out while it walks a list, so a shop that
// pages by offset cannot skip or repeat a zone in the middle of a walk; walks go together, writes go
// together, neither kind waits for ever behind the other, and work that goes alone has nothing beside it.
import { expect, test } from 'vitest';
import { WalksAndWrites } from '../helpers/target/walks-and-writes.ts';

/** Work that runs until `finish` is called, logging when it starts and ends. */
function work(log: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    finish,
    run: async () => {
      log.push(`${name} starts`);
      await done;
      log.push(`${name} ends`);
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test('a write asked during a walk waits for the walk to end; walks asked meanwhile wait behind the write', async () => {
  const gate = new WalksAndWrites();
  const log: string[] = [];
  const [walk, write, laterWalk] = [work(log, 'walk'), work(log, 'write'), work(log, 'later walk')];
  const all = [gate.during('walk', walk.run), gate.during('write', write.run), gate.during('walk', laterWalk.run)];
  await tick();
  expect(log).toEqual(['walk starts']);
  walk.finish();
  await tick();
  expect(log).toEqual(['walk starts', 'walk ends', 'write starts']);
  write.finish();
  laterWalk.finish();
  await Promise.all(all);
  expect(log).toEqual([
    'walk starts',
    'walk ends',
    'write starts',
    'write ends',
    'later walk starts',
    'later walk ends',
  ]);
});

test('work that goes alone waits for what is under way, and nothing starts beside it; creates are counted as they end', async () => {
  const gate = new WalksAndWrites();
  const log: string[] = [];
  const [write, alone, walk, laterWrite] = [
    work(log, 'write'),
    work(log, 'alone'),
    work(log, 'walk'),
    work(log, 'later write'),
  ];
  const all = [gate.write(true, write.run), gate.during('alone', alone.run)];
  all.push(gate.during('walk', walk.run), gate.write(false, laterWrite.run));
  await tick();
  expect(log).toEqual(['write starts']);
  expect(gate.createsEnded).toBe(0);
  write.finish();
  await tick();
  expect(log).toEqual(['write starts', 'write ends', 'alone starts']);
  expect(gate.createsEnded).toBe(1);
  alone.finish();
  await tick();
  expect(log.slice(-2)).toEqual(['alone ends', 'walk starts']);
  walk.finish();
  laterWrite.finish();
  await Promise.all(all);
  expect(log.slice(-3)).toEqual(['walk ends', 'later write starts', 'later write ends']);
  expect(gate.createsEnded).toBe(1);
});

test('walks go together, and so do writes', async () => {
  const gate = new WalksAndWrites();
  const log: string[] = [];
  const walks = [work(log, 'walk 1'), work(log, 'walk 2')];
  const writes = [work(log, 'write 1'), work(log, 'write 2')];
  const all = [...walks.map((w) => gate.during('walk', w.run)), ...writes.map((w) => gate.during('write', w.run))];
  await tick();
  expect(log).toEqual(['walk 1 starts', 'walk 2 starts']);
  for (const w of walks) w.finish();
  await tick();
  expect(log.slice(-2)).toEqual(['write 1 starts', 'write 2 starts']);
  for (const w of writes) w.finish();
  await Promise.all(all);
});

test('work that fails still lets the next kind go', async () => {
  const gate = new WalksAndWrites();
  await expect(gate.during('walk', () => Promise.reject(new Error('no answer')))).rejects.toThrow('no answer');
  await expect(gate.during('write', async () => 'sent')).resolves.toBe('sent');
});
