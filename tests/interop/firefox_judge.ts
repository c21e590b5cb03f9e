/* firefox_judge.ts — the Firefox Profiler's own code as the judge of pcol's
 * Firefox files (tests/interop/t_firefox.sh bundles it with esbuild from a
 * profiler checkout, $FIREFOX_PROFILER_SRC; nothing of the profiler is in
 * this repository).
 *
 * For each file: unserializeProfileOfArbitraryFormat (gzip sniffing,
 * processed-profile upgraders, or Gecko processing), then per thread the
 * derived tables and the function list's timings (computeFunctionListTimings,
 * what the profiler's Function list and call tree show: a function's self,
 * and its total counting a sample once however often it recurses).  Prints
 * one JSON line per file: {file, version, warnings, range: [start, end]
 * (getTimeRangeIncludingAllThreads: the root range the timeline shows, ms
 * since meta.startTime), profilingRange: [meta.profilingStartTime,
 * meta.profilingEndTime], threads: [{name, weightType, samples, funcs:
 * [[name, file, self, total], ...]}]}, or {file, error}.  Warnings are what the profiler logged while loading. */
import * as fs from 'fs';
import { unserializeProfileOfArbitraryFormat } from 'firefox-profiler/profile-logic/process-profile';
import {
  computeCallNodeSelfAndSummary,
  computeFunctionListTimings,
} from 'firefox-profiler/profile-logic/call-tree';
import {
  getCallNodeInfo,
  getSampleIndexToCallNodeIndex,
  computeCallNodeFuncIsDuplicate,
  createThreadFromDerivedTables,
  computeStackTableFromRawStackTable,
  computeFrameTableFromRawFrameTable,
  computeSamplesTableFromRawSamplesTable,
  getTimeRangeIncludingAllThreads,
} from 'firefox-profiler/profile-logic/profile-data';
import { computeReferenceCPUDeltaPerMs } from 'firefox-profiler/profile-logic/cpu';
import { StringTable } from 'firefox-profiler/utils/string-table';
import { PROCESSED_PROFILE_VERSION } from 'firefox-profiler/app-logic/constants';

async function judge(file: string) {
  const logged: string[] = [];
  const saved = { warn: console.warn, error: console.error, log: console.log };
  console.warn = (...a: unknown[]) => logged.push('warn: ' + a.map(String).join(' '));
  console.error = (...a: unknown[]) => logged.push('error: ' + a.map(String).join(' '));
  console.log = (...a: unknown[]) => logged.push('log: ' + a.map(String).join(' '));
  try {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const upgradeInfo: Record<string, unknown> = {};
    const profile = await unserializeProfileOfArbitraryFormat(bytes, undefined, upgradeInfo as any);
    const categories = profile.meta.categories;
    const defaultCategory = (categories || []).findIndex((c) => c.color === 'grey');
    const ref = computeReferenceCPUDeltaPerMs(profile);
    const { shared } = profile;
    const stringTable = StringTable.withBackingArray(shared.stringArray);
    const threads = profile.threads.map((raw) => {
      const frameTable = computeFrameTableFromRawFrameTable(shared.frameTable);
      const stackTable = computeStackTableFromRawStackTable(shared.stackTable, frameTable, categories, defaultCategory);
      const samples = computeSamplesTableFromRawSamplesTable(raw.samples, stackTable, profile.meta.sampleUnits, ref, defaultCategory);
      const thread = createThreadFromDerivedTables(raw, samples, stackTable, frameTable, shared.funcTable,
        shared.nativeSymbols, shared.resourceTable, stringTable, shared.sources, undefined,
        shared.sourceLocationTable, undefined, undefined);
      const info = getCallNodeInfo(thread.stackTable, thread.frameTable, defaultCategory);
      const cnt = info.getCallNodeTable();
      const timings = computeFunctionListTimings(cnt, computeCallNodeFuncIsDuplicate(cnt),
        computeCallNodeSelfAndSummary(thread.samples,
          getSampleIndexToCallNodeIndex(thread.samples.stack, info.getStackIndexToNonInvertedCallNodeIndex()),
          cnt.length),
        thread.funcTable.length);
      const funcs: Array<[string, string | null, number, number]> = [];
      for (let f = 0; f < thread.funcTable.length; f++) {
        if (!timings.funcSelf[f] && !timings.funcTotal[f]) continue;
        const src = thread.funcTable.source[f];
        const fname = src === null || src === undefined ? null : stringTable.getString(shared.sources.filename[src]);
        funcs.push([stringTable.getString(thread.funcTable.name[f]), fname, timings.funcSelf[f], timings.funcTotal[f]]);
      }
      return { name: raw.name, pid: raw.pid, tid: raw.tid, weightType: raw.samples.weightType || 'samples',
               samples: raw.samples.length, funcs };
    });
    const r = getTimeRangeIncludingAllThreads(profile);
    return { file, version: profile.meta.preprocessedProfileVersion, supported: PROCESSED_PROFILE_VERSION,
             upgradeInfo, warnings: logged, range: [r.start, r.end],
             profilingRange: [profile.meta.profilingStartTime ?? null, profile.meta.profilingEndTime ?? null],
             threads };
  } catch (e) {
    return { file, error: String(e), warnings: logged };
  } finally {
    Object.assign(console, saved);
  }
}

(async () => {
  for (const f of process.argv.slice(2)) process.stdout.write(JSON.stringify(await judge(f)) + '\n');
})();
