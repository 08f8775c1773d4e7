local function a()
  local function b()
    return nil + 1
  end
  return b()
end
a()
