// String.prototype.replace/replaceAll with a replacement function (§22.1.3.19-20: the
// function runs in the loop, once per match, positions found first), and String.raw.
// Replacement strings stay native (GetSubstitution with $$ $& $` $').
// The block keeps these names out of the other prelude files.
{
const nativeReplace = String.prototype.replace;
const nativeReplaceAll = String.prototype.replaceAll;
const indexOfStr = String.prototype.indexOf;
const sliceStr = String.prototype.slice;
const createData = I.createDataProperty;

function replaceWith(self, searchValue, fn, all) {
  const string = toStr(self);
  const search = toStr(searchValue);
  const len = search.length;
  const advance = len > 0 ? len : 1;
  const positions = [];
  let p = call(indexOfStr, string, search, 0);
  while (p !== -1) {
    createData(positions, positions.length, p);
    if (!all || p + advance > string.length) break;
    p = call(indexOfStr, string, search, p + advance);
  }
  if (positions.length === 0) return string;
  let end = 0;
  let result = "";
  for (let i = 0; i < positions.length; i++) {
    const at = positions[i];
    result += call(sliceStr, string, end, at) + toStr(call(fn, undefined, search, at, string));
    end = at + len;
  }
  return result + call(sliceStr, string, end);
}

def(String.prototype, "replace", function replace(searchValue, replaceValue) {
  if (this === undefined || this === null) typeError("String.prototype.replace called on null or undefined");
  if (!isCallable(replaceValue)) return call(nativeReplace, this, searchValue, replaceValue);
  return replaceWith(this, searchValue, replaceValue, false);
});

def(String.prototype, "replaceAll", function replaceAll(searchValue, replaceValue) {
  if (this === undefined || this === null) typeError("String.prototype.replaceAll called on null or undefined");
  if (!isCallable(replaceValue)) return call(nativeReplaceAll, this, searchValue, replaceValue);
  return replaceWith(this, searchValue, replaceValue, true);
});

def(String, "raw", function raw(template, ...substitutions) {
  if (template === undefined || template === null) typeError("Cannot convert undefined or null to object");
  const literals = template.raw;
  if (literals === undefined || literals === null) typeError("Cannot convert undefined or null to object");
  const count = toLength(literals);
  if (count <= 0) return "";
  let out = "";
  for (let i = 0; ; i++) {
    out += toStr(literals[i]);
    if (i + 1 === count) return out;
    if (i < substitutions.length) out += toStr(substitutions[i]);
  }
});
}
