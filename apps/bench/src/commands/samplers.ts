/*
 * `bench samplers [--plugin PATH]… [--json]`: the sampler plugins the bench's registry holds (the
 * built-ins and each --plugin), with their capabilities, so a user learns what `--sampler` accepts
 * without making a mistake first.
 */
import { repeatable } from '../parseValues.js';
import type { AnySamplerPlugin } from '@boltzmann/ising-core';
import type { MainIo } from '../io.js';
import { EXIT } from '../io.js';
import type { CommandSpec } from './commandSpec.js';
import { userPath } from '../paths.js';

/** A parsed `bench samplers` invocation. */
export interface SamplersCommand {
  readonly plugins: readonly string[];
  readonly json: boolean;
}

/** The command `bench samplers [--plugin PATH]… [--json]`. */
export const samplersCommand: CommandSpec<SamplersCommand> = {
  name: 'samplers',
  summary: 'list the sampler plugins --sampler accepts, with their capabilities and options',
  define: (cmd) => {
    cmd
      .option(
        '--plugin <path>',
        'also load a sampler plugin module; repeatable',
        repeatable,
        [] as string[],
      )
      .option('--json', 'one JSON object per line instead of a table');
  },
  parse: (options) => {
    const raw = options as { plugin: string[]; json?: boolean };
    return { plugins: raw.plugin.map(userPath), json: raw.json === true };
  },
  run: (command, io) => runSamplers(command, io),
};

/** One plugin as `bench samplers` shows it. */
export function describePlugin(plugin: AnySamplerPlugin): Record<string, unknown> {
  const c = plugin.capabilities;
  return {
    name: plugin.name,
    version: plugin.version,
    exact: c.exact,
    maxSpins: c.maxSpins,
    async: c.async,
    deterministic: c.deterministic,
    dryRun: c.dryRun === true,
    secretOptions: plugin.secretOptions ?? [],
    options: plugin.options ?? [],
    ...(plugin.description ? { description: plugin.description } : {}),
  };
}

/** A plugin's options as lines under its name: name, type, default and what it does. */
function optionLines(plugin: AnySamplerPlugin): string[] {
  const specs = plugin.options ?? [];
  if (specs.length === 0) return [`${plugin.name}: its options are not described (see its README)`];
  const width = Math.max(...specs.map((o) => o.name.length));
  return [
    `${plugin.name} options:`,
    ...specs.map(
      (o) =>
        `  ${o.name.padEnd(width)}  ${o.type}${o.default === undefined ? '' : ` = ${o.default}`}\n  ${' '.repeat(width)}  ${o.doc}`,
    ),
  ];
}

/**
 * Prints the registry's plugins: a table, or JSON Lines with `--json`.
 *
 * @throws BENCH_PLUGIN_LOAD, ISING_INVALID_PLUGIN for a bad --plugin (the caller prints them).
 */
export async function runSamplers(command: SamplersCommand, io: MainIo): Promise<number> {
  const { createBenchRegistry } = await import('../samplers/registry.js');
  const plugins = (await createBenchRegistry(command.plugins)).list();
  const rows = plugins.map(describePlugin);
  if (command.json) {
    for (const row of rows) io.out(JSON.stringify(row));
    return EXIT.ok;
  }
  const columns = ['name', 'version', 'exact', 'maxSpins', 'async', 'deterministic', 'dryRun'];
  const cells = rows.map((r) => columns.map((k) => String(r[k])));
  const widths = columns.map((k, i) => Math.max(k.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]): string =>
    c
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  io.out(line(columns));
  for (const c of cells) io.out(line(c));
  for (const plugin of plugins) io.out(`\n${optionLines(plugin).join('\n')}`);
  io.out(
    '\n`--sampler NAME --sampler-options JSON|@FILE` or `--sampler-option KEY=VALUE` (repeatable) passes options to the chosen plugin.',
  );
  return EXIT.ok;
}
