import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { deal, secondsOf } from './deal';

// Deals the browser suite's files to shards by their length (see deal.ts).
export default class DurationSequencer extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard ?? { index: 1, count: 1 };
    const mine = new Set(deal(files.map((file) => file.moduleId), count)[index - 1]);
    return files.filter((file) => mine.has(file.moduleId));
  }

  /** The longest file first, so a shard's long pole starts at once. */
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => secondsOf(b.moduleId) - secondsOf(a.moduleId));
  }
}
