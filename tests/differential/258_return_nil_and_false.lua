print("nil then false")
return nil, false, nil
