// Which files changed most in the last 50 commits, and who changed them? The JavaScript twin of
// churn.lua: one git.log call; returns a list of {file, changes, authors}, most changed first
// (ties by file name), at most 20 entries. `changes` counts the commits that touched the file.

const commits = await tools.git.log({ limit: 50 });

const byFile = new Map(); // file name -> { changes, authors: Set of names }, in the order first seen
for (const commit of commits) {
  for (const file of commit.files) {
    let entry = byFile.get(file);
    if (!entry) byFile.set(file, (entry = { changes: 0, authors: new Set() }));
    entry.changes++;
    entry.authors.add(commit.author);
  }
}

const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const result = [...byFile]
  .sort(([a, x], [b, y]) => y.changes - x.changes || byName(a, b))
  .slice(0, 20)
  .map(([file, e]) => ({ file, changes: e.changes, authors: [...e.authors].sort(byName) }));

console.log(`${commits.length} commits, ${byFile.size} distinct files changed`);
return result;
