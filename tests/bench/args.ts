/** `npm run bench -- --applications 10000 ...`: the sizes of one run and their defaults. */

export interface BenchOptions {
  /** Applications in the one lottery opportunity (lists, draw, invitations run on it). */
  applications: number;
  /** The smaller list size measured first (lists are measured at this size and at `applications`). */
  smallApplications: number;
  /** Applications sent as fast as the API takes them (apply throughput), and bare starts for comparison. */
  applies: number;
  /** Applications a second during the read-model lag run, and how long it runs. */
  rate: number;
  lagSeconds: number;
  /** Households invited in one InviteNext (all their lease-up cases must start). */
  invite: number;
  /** Requests per list figure; actions and queries timed each. */
  samples: number;
  /** Requests in flight during the apply throughput run (API and bare alike). */
  concurrency: number;
  /** Skip the production build (initial JS per public page). */
  skipWeb: boolean;
  /** Keep the stack's data folder after the run (its path is printed). */
  keep: boolean;
  /** Only the shapes side by side: the same applies and actions on the dev-server stack, then on `npm run start:cluster`. */
  cluster: boolean;
  /** Only the public pages beside a bare node:http server. */
  publicPages: boolean;
  /** Only opening day: `people` households apply to one lottery over `minutes` while managers work the inbox, then the draw. */
  openingDay: boolean;
  people: number;
  minutes: number;
  help: boolean;
}

export const DEFAULTS: BenchOptions = {
  applications: 100_000,
  smallApplications: 10_000,
  applies: 400,
  rate: 40,
  lagSeconds: 15,
  invite: 1_000,
  samples: 200,
  concurrency: 16,
  skipWeb: false,
  keep: false,
  cluster: false,
  publicPages: false,
  openingDay: false,
  people: 2_000,
  minutes: 5,
  help: false,
};

const NUMERIC: Record<string, keyof BenchOptions> = {
  applications: 'applications',
  small: 'smallApplications',
  applies: 'applies',
  rate: 'rate',
  'lag-seconds': 'lagSeconds',
  invite: 'invite',
  samples: 'samples',
  concurrency: 'concurrency',
  people: 'people',
  minutes: 'minutes',
};
const FLAGS: Record<string, keyof BenchOptions> = { 'skip-web': 'skipWeb', keep: 'keep', cluster: 'cluster', public: 'publicPages', 'opening-day': 'openingDay', help: 'help' };

export const USAGE = `npm run bench -- [options]
  --applications N   applications in the lottery opportunity (default ${DEFAULTS.applications})
  --small N          the smaller list size measured first (default ${DEFAULTS.smallApplications}; skipped when >= applications)
  --applies N        applies for the throughput figure, and as many bare starts (default ${DEFAULTS.applies})
  --concurrency N    requests in flight during the throughput run (default ${DEFAULTS.concurrency})
  --rate N           applies a second during the read-model lag run (default ${DEFAULTS.rate})
  --lag-seconds N    how long the lag run lasts (default ${DEFAULTS.lagSeconds})
  --invite N         households invited in one batch (default ${DEFAULTS.invite})
  --samples N        requests timed per latency figure (default ${DEFAULTS.samples})
  --skip-web         no production build (initial JS per public page)
  --keep             keep the data folder of the bench's stack
  --cluster          only the two shapes side by side: --applies applications (--concurrency in flight) and
                     --samples actions and reads on the dev-server stack, then the same on npm run start:cluster
  --public           only the public list and one opportunity at 50 connections, beside a bare node:http server
  --opening-day      only opening day: --people households arrive over --minutes (half in the first minute), each
                     reads the list and the lottery, signs in, opens the profile, applies and checks the application,
                     while 20 managers work the inbox; then applications close and the lottery is drawn
  --people N         households on opening day (default ${DEFAULTS.people})
  --minutes N        minutes over which they arrive (default ${DEFAULTS.minutes})`;

/** Parses `--name value`, `--name=value` and flags; throws with the usage on anything else. */
export function parseArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unexpected argument ${arg}\n${USAGE}`);
    const [, name, inline] = match as unknown as [string, string, string | undefined];
    if (FLAGS[name]) {
      (options[FLAGS[name]] as boolean) = true;
      continue;
    }
    const key = NUMERIC[name];
    if (!key) throw new Error(`unknown option --${name}\n${USAGE}`);
    const raw = inline ?? argv[++i];
    const value = Number(raw);
    if (raw === undefined || !Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a whole number of at least 1, got ${raw ?? 'nothing'}`);
    (options[key] as number) = value;
  }
  return options;
}
