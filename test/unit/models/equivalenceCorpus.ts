/**
 * ≥200 varied, deterministic inputs for the USE-lite equivalence test: English prose, code
 * identifiers and paths, Chinese, punctuation-only, empty, very long, and Unicode edge cases
 * (NFKC-affected characters, emoji, tabs and newlines, ":" pieces with odd scores).
 */
const PROSE = [
  'The quick brown fox jumps over the lazy dog.',
  'We decided to keep the store in a single SQLite file per user.',
  'Remember that the build must work offline.',
  'Use pnpm instead of npm for this repository.',
  'The CI pipeline fails when the cache key changes.',
  'Always run the linter before committing.',
  'The customer asked for dark mode support in the settings page.',
  'Deploys happen every Tuesday at 10:30 UTC.',
  'Our API rate limit is 100 requests per minute per token.',
  'The migration renamed the column user_id to account_id.',
  'I prefer tabs over spaces, but the project uses two spaces.',
  'Why does the test suite take so long on Windows?',
  'Postgres was replaced by MongoDB last quarter.',
  'The login flow redirects to /auth/callback after OAuth.',
  'Memory leaks appeared after upgrading to Node 20.',
  "Don't store secrets in the repository; use the vault.",
  'hello', 'world', 'x', 'a', 'I', 'OK', 'yes', 'no',
];
const WORDS = ['database', 'migration', 'cache', 'token', 'worker', 'thread', 'embedding', 'vector', 'recall', 'memory',
  'agent', 'session', 'graph', 'entity', 'search', 'index', 'build', 'deploy', 'config', 'setting', 'user', 'error'];
const CODE = [
  'src/core/models/useLiteTokenizer.ts', 'C:\\Users\\dev\\project\\main.py', '/usr/local/bin/node', 'node_modules/.bin/tsc',
  'getUserById', 'get_user_by_id', 'HTTPServerError', 'XMLHttpRequest', 'parseInt(value, 10)', 'const x = await fetch(url);',
  'SELECT * FROM memories WHERE id = ?;', 'git commit -m "fix: stale vectors"', 'npm install --save-dev mocha@11',
  'https://example.com/a/b?c=d&e=f#g', 'foo.bar.baz()', '__init__.py', 'README.md', 'package.json', '@types/node',
  'useEffect(() => {}, [])', 'fn main() { println!("hi"); }', 'x := map[string]int{}', 'std::vector<int> v;',
  'if (a && b || !c) return;', '#include <stdio.h>', 'def f(*args, **kwargs): pass', 'let v = [1, 2, 3].map(n => n * 2)',
];
const CHINESE = [
  '数据库迁移', '发布端口，配置文件', '精排默认关闭', '巩固原语', '本机实测，cross-encoder 给一条真匹配打高分',
  '召回宽度默认不变', '我们决定使用 SQLite 存储记忆', '这是一个测试句子。', '向量索引', '用户喜欢深色主题',
  '中文和English混合', '日本語のテキストも試す', '한국어 문장', '繁體中文測試', '模型下载失败时清理临时文件',
];
const PUNCT = ['!!!', '...', '?', '---', '()', '[]{}', ':::', ':30', ':00', '://', ':)', ':-)', '):', '"\'', '***', '@#$%^&*', ';;', '~', '|', '\\'];
const UNICODE = [
  'ﬁle ﬂow', '①②③', 'Ｆｕｌｌｗｉｄｔｈ text', 'café naïve résumé', 'e\u0301 composed', '😀 emoji at start', 'end with emoji 🚀',
  'tab\tseparated\tvalues', 'line one\nline two', 'windows\r\nline', '  leading spaces', 'trailing spaces   ', 'double  space',
  '\u00a0non-breaking', 'ß straße', 'Ωmega ≈ 3.14', 'x² + y² = z²', '½ cup', '™ ® ©', 'zero\u200bwidth',
];
const EMPTY = ['', ' ', '  ', '\t', '\n'];

/** Deterministic pseudo-random generator (LCG) so the corpus never changes between runs. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
}

export function equivalenceCorpus(): string[] {
  const rnd = lcg(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const generated: string[] = [];
  for (let i = 0; i < 50; i++) {
    const n = 3 + Math.floor(rnd() * 12);
    generated.push(Array.from({ length: n }, () => pick(WORDS)).join(' ') + pick(['.', '?', '!', '', ':']));
  }
  for (let i = 0; i < 25; i++) {
    const parts = Array.from({ length: 2 + Math.floor(rnd() * 4) }, () => pick(WORDS));
    generated.push(pick([parts.join('/') + '.ts', parts.join('_'), parts.map((p, k) => (k ? p[0]?.toUpperCase() + p.slice(1) : p)).join(''), parts.join('-'), parts.join('.')]));
  }
  for (let i = 0; i < 10; i++) generated.push(pick(CHINESE) + pick(['，', '。', ' ', '']) + pick(CHINESE));
  const long = [
    PROSE.slice(0, 16).join(' '),
    Array.from({ length: 60 }, () => pick(WORDS)).join(' '),
    Array.from({ length: 200 }, () => pick(WORDS)).join(' '),
    CODE.join(' '),
    CHINESE.join('，'),
    'a '.repeat(300),
    'word'.repeat(100),
    Array.from({ length: 150 }, (_, k) => `item${k}`).join(', '),
    PROSE.join('\n'),
    '😀'.repeat(50),
  ];
  return [...PROSE, ...CODE, ...CHINESE, ...PUNCT, ...UNICODE, ...EMPTY, ...generated, ...long];
}
