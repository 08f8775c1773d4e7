local scores = {
  { user = "ana", score = 88 }, { user = "bo", score = 95 }, { user = "cy", score = 70 },
  { user = "di", score = 95 }, { user = "ed", score = 60 }, { user = "fa", score = 88 },
  { user = "gu", score = 99 },
}
table.sort(scores, function(a, b)
  if a.score ~= b.score then return a.score > b.score end
  return a.user < b.user
end)
local top = {}
for i = 1, 3 do
  top[i] = scores[i].user .. ":" .. scores[i].score
  print(i, top[i])
end
return top
