import { Worker } from 'node:worker_threads';

/** What one input is: loaded as a nine-point specification or imported as an OpenAPI document. */
export interface FuzzInput {
  kind: 'spec' | 'openapi';
  file: string;
  text: string;
}

export interface FuzzIssue {
  code: string;
  severity: 'error' | 'warning';
  line: number | undefined;
  message: string;
}

/** What became of one input: its issues, or why it could not finish (a throw, a hang, memory). */
export type FuzzOutcome =
  | { kind: 'loaded'; ok: boolean; issues: FuzzIssue[]; ms: number }
  | { kind: 'threw'; message: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'crashed'; message: string };

export interface PoolLimits {
  /** Per input: past this, the worker is ended and the input counts as a hang. */
  timeoutMs: number;
  /** Per worker's heap: an input that needs more ends the worker, and counts as a blow-up. */
  memoryMb: number;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
}

/**
 * Loads inputs in a small pool of reused worker threads, each with a heap limit, and a deadline per input:
 * a hang or a blow-up ends that worker (a new one takes its place) and is reported, never waited out.
 */
export class FuzzPool {
  private readonly slots: Slot[] = [];
  private nextId = 0;

  constructor(
    private readonly size: number,
    private readonly limits: PoolLimits,
  ) {}

  private spawn(): Slot {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb },
    });
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    return { worker, ready };
  }

  /** Runs every input, `size` at a time, and answers their outcomes in input order. */
  async run(inputs: readonly FuzzInput[]): Promise<FuzzOutcome[]> {
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    const outcomes: FuzzOutcome[] = new Array(inputs.length);
    let cursor = 0;
    await Promise.all(
      this.slots.map(async (_, index) => {
        while (cursor < inputs.length) {
          const at = cursor++;
          outcomes[at] = await this.one(index, inputs[at] as FuzzInput);
        }
      }),
    );
    return outcomes;
  }

  private async one(index: number, input: FuzzInput): Promise<FuzzOutcome> {
    let slot = this.slots[index] as Slot;
    await slot.ready;
    const id = this.nextId++;
    const started = performance.now();
    const outcome = await new Promise<FuzzOutcome>((resolve) => {
      const timer = setTimeout(() => {
        cleanup();
        resolve({ kind: 'timeout', ms: performance.now() - started });
      }, this.limits.timeoutMs);
      const onMessage = (answer: {
        id: number;
        threw: boolean;
        message?: string;
        ok?: boolean;
        issues?: FuzzIssue[];
        ms: number;
      }) => {
        if (answer.id !== id) return;
        cleanup();
        resolve(
          answer.threw
            ? { kind: 'threw', message: answer.message ?? '' }
            : { kind: 'loaded', ok: answer.ok === true, issues: answer.issues ?? [], ms: answer.ms },
        );
      };
      const onError = (error: Error) => {
        cleanup();
        resolve({ kind: 'crashed', message: error.message });
      };
      const onExit = (code: number) => {
        cleanup();
        resolve({ kind: 'crashed', message: `the worker exited with ${code}` });
      };
      const cleanup = () => {
        clearTimeout(timer);
        slot.worker.off('message', onMessage);
        slot.worker.off('error', onError);
        slot.worker.off('exit', onExit);
      };
      slot.worker.on('message', onMessage);
      slot.worker.once('error', onError);
      slot.worker.once('exit', onExit);
      slot.worker.postMessage({ id, ...input });
    });
    if (outcome.kind === 'timeout' || outcome.kind === 'crashed') {
      await slot.worker.terminate();
      slot = this.spawn();
      this.slots[index] = slot;
    }
    return outcome;
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}
