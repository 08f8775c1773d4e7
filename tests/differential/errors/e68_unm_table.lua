local x = -{}
