// Who added and deleted the most lines in the last 20 commits, and where? The JavaScript twin of
// authors.lua: one git.log call, then every git.show call at once (Promise.allSettled; the host
// runs 8 at a time). Same result as authors.lua.

// "crates/codemode-lua/src/vm.rs" -> "crates/codemode-lua"; "README.md" -> "."
function area(path: string): string {
  const parts = path.split("/");
  if (parts.length === 1) return ".";
  if (parts[0] === "crates" && parts.length > 2) return `crates/${parts[1]}`;
  return parts[0];
}

const commits = await tools.git.log({ limit: 20 });
const shown = await Promise.allSettled(commits.map((c) => tools.git.show({ rev: c.hash })));

const stats = new Map<string, { commits: number; added: number; deleted: number; areas: Set<string> }>();
shown.forEach((r, i) => {
  if (r.status === "rejected") {
    console.log(`skipping ${commits[i].hash}: ${r.reason.message}`);
    return;
  }
  const commit = r.value;
  let s = stats.get(commit.author);
  if (!s) stats.set(commit.author, (s = { commits: 0, added: 0, deleted: 0, areas: new Set() }));
  s.commits++;
  for (const f of commit.files) {
    s.added += f.added;
    s.deleted += f.deleted;
    s.areas.add(area(f.path));
  }
});

return [...stats]
  .sort(([a, x], [b, y]) => y.added + y.deleted - (x.added + x.deleted) || (a < b ? -1 : a > b ? 1 : 0))
  .map(([author, s]) => ({ author, commits: s.commits, added: s.added, deleted: s.deleted, areas: [...s.areas].sort() }));
