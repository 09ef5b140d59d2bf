/**
 * Chinese noise memories for teams that write part of their notes in Chinese: the same everyday
 * session chatter as noiseEn.ts, written the way a Chinese-speaking team would note it (code
 * identifiers stay in ASCII).
 */
import type { Rng } from './prng';
import type { ProjectSpec } from './specTypes';
import type { NoiseDraft } from './noiseEn';
import { JOB_NAMES, branch, ident, otherPerson, ticket, version } from './noiseParts';

const file = (rng: Rng, spec: ProjectSpec): string => rng.pick(spec.vocab.files)[0];
const mod = (rng: Rng, spec: ProjectSpec): string => rng.pick(spec.vocab.modules).replace(/^the /, '');

const ZH_REASONS = ['时区相关的断言', '测试初始化里的竞态', '过期的快照', '依赖执行顺序的 fixture', '端口被占用'];
const ZH_IDEAS = ['拆成两个包', '放到 worker 线程里跑', '去掉旧的兼容分支', '和管理后台共用代码', '加一层缓存'];

const ZH_NOISE: Array<(rng: Rng, spec: ProjectSpec) => NoiseDraft> = [
  (rng, spec) => ({ type: 'event', tags: ['tests'], content: `跑了一遍 \`${spec.vocab.testCmd}\`：${rng.int(40, 900)} 个通过，${rng.int(1, 4)} 个失败，失败在 ${file(rng, spec)}，原因是${rng.pick(ZH_REASONS)}。` }),
  (rng, spec) => ({ type: 'observation', content: `今天通读了 ${file(rng, spec)} 的代码，暂时不需要改动。` }),
  (rng, spec) => {
    const who = rng.pick(spec.people);
    return { type: 'event', content: `${who} 这周请假，${mod(rng, spec)} 的代码评审先交给 ${otherPerson(rng, spec, who)}。` };
  },
  (rng, spec) => ({ type: 'observation', tags: ['perf'], content: `压测时 ${mod(rng, spec)} 的 p95 是 ${rng.int(4, 900)} 毫秒，主要耗时在 ${rng.pick(spec.vocab.libs)}。` }),
  (rng, spec) => {
    const [from, to] = version(rng);
    return { type: 'event', content: `把 ${rng.pick(spec.vocab.libs)} 从 ${from} 升级到 ${to}，没有破坏性变更。` };
  },
  (rng, spec) => ({ type: 'event', tags: ['ci'], content: `CI 任务 ${rng.pick(JOB_NAMES)} 在分支 ${branch(rng, spec)} 上超时了，重跑之后通过，应该是 runner 不稳定。` }),
  (rng, spec) => ({ type: 'observation', content: `偶尔看到 ${rng.pick(spec.vocab.errors)} 报错（当时在${rng.pick(['调试', '跑集成测试', '本地联调', '看日志'])}），之后没能复现。` }),
  (rng, spec) => ({ type: 'event', content: `提了 PR #${rng.int(100, 2600)}，整理了 ${mod(rng, spec)} 的错误处理。` }),
  (rng, spec) => ({ type: 'observation', content: `用户问 ${mod(rng, spec)} 能不能${rng.pick(ZH_IDEAS)}，先放一放，以后再说。` }),
  (rng, spec) => ({ type: 'event', content: `给 ${mod(rng, spec)} 加了结构化日志，每条日志都带 request id。` }),
  (rng, spec) => ({ type: 'observation', content: `${rng.pick(spec.people)} 提醒：${ident(rng)} 在一次请求里被调用了 ${rng.int(3, 40)} 次，以后可以考虑做缓存。` }),
  (rng, spec) => ({ type: 'observation', content: `后续跟进 ${ticket(rng, spec)}：${mod(rng, spec)} 在生产环境还在打 debug 级别日志。` }),
];

export function zhNoise(rng: Rng, spec: ProjectSpec): NoiseDraft {
  if (rng.chance(0.08)) {
    const lines = [0, 1, 2].map(() => rng.pick(ZH_NOISE)(rng, spec).content);
    const open = rng.pick(ZH_NOISE)(rng, spec).content;
    return { type: 'summary', tags: ['session-summary'], content: `会话小结（${spec.name}）\n\n完成：\n${lines.map((l) => `- ${l}`).join('\n')}\n\n待办：\n- ${open}` };
  }
  return rng.pick(ZH_NOISE)(rng, spec);
}
