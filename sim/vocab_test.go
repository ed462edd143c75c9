package sim

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// The core's constants have their names, a name declared twice is one
// value, and a number nobody declared says so.
func TestVocabularyNames(t *testing.T) {
	assert.Equal(t, "", NoOp.String())
	assert.Equal(t, []string{"READ", "WRITE", "VALUE", "STORED"},
		[]string{OpRead.String(), OpWrite.String(), OpReadOK.String(), OpWriteOK.String()})
	assert.Equal(t, []string{"work", "think", "retry", "sendwrite", "storage", "script"},
		[]string{timerWork.String(), timerThink.String(), TimerRetry.String(), timerWrite.String(), storageRT.String(), timerScript.String()})

	was := sealed.Load() // an earlier test's run sealed the vocabularies
	defer sealed.Store(was)
	sealed.Store(false)
	v := vocabulary{kind: "Test", names: []string{""}}
	a, b := v.declare("A"), v.declare("B")
	assert.NotEqual(t, a, b)
	assert.Equal(t, a, v.declare("A"), "the same name is the same value")
	assert.Equal(t, "B", v.name(b))
	assert.Equal(t, "Test(9)", v.name(9))
}

// Once a run is built (build seals), a declaration panics: runs read the
// names on several goroutines.
func TestVocabularySealed(t *testing.T) {
	was := sealed.Load()
	defer sealed.Store(was)
	seal()
	assert.PanicsWithValue(t, `sim: Op "LATE" declared after a run started: declare it in a package-level var`, func() { NewOp("LATE") })
}

// A message is no larger for its op: the op is a number, not a string.
func TestMsgIsSmall(t *testing.T) {
	assert.Equal(t, uintptr(96), unsafe.Sizeof(Msg{}), "104 bytes with a string op")
	assert.Equal(t, uintptr(32), unsafe.Sizeof(Timer{}), "40 bytes with a string kind")
}
