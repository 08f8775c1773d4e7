local t = setmetatable and {} or {}
local words = {}
for w in ("alpha beta gamma"):gmatch("%a+") do
  words[#words + 1] = tools.mail.send({ word = w }).echo.word:upper()
end
return table.concat(words, " ")
