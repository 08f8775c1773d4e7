for i = 1, 3 do
  local t = nil
  t[i] = i
end
