package sim

// Say is the Words of key with args given as name, value pairs: packages
// built on the simulator (the fault-schedule search) state their sentences
// with it, as the simulator does.
func Say(key string, args ...string) Words { return say(key, args...) }

// With adds a placeholder whose value is another sentence, said in the
// same language as the one around it.
func (w Words) With(name string, p Words) Words { return w.part(name, p) }
