package designtab_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	redissim "github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// A choice option's control is built from its declaration: a select's
// values, each in its words, reading and writing the option.
func TestOptionToggleOfAChoice(t *testing.T) {
	c := designtab.OptionToggle(redissim.Client.Option)
	require.True(t, c.IsChoice())
	assert.Equal(t, []string{"redisson", "redisson-fair", "redisson-3.16", "plain"}, c.Values)
	assert.Equal(t, "Redisson 4.7.0 RLock", c.ValueName("redisson"))
	assert.Equal(t, "Redisson 4.7.0 RFairLock", c.ValueName("redisson-fair"))
	assert.Equal(t, "Redisson 3.16.8 RLock (older)", c.ValueName("redisson-3.16"))
	assert.Equal(t, "SET NX (redis.io recipe)", c.ValueName("plain"))
	assert.Equal(t, "plain", c.ValueOf("SET NX (redis.io recipe)"))
	assert.Equal(t, "", c.ValueOf("Jedis"))
	sc, err := sim.Defaults("redis")
	require.NoError(t, err)
	assert.Equal(t, "redisson", c.Choice(sc))
	assert.False(t, c.Value(sc))
	c.Choose(sc, "plain")
	assert.Equal(t, redissim.ClientPlain, redissim.Client.Of(sc))
	assert.True(t, c.Value(sc))
	assert.False(t, designtab.OptionToggle(redissim.Watchdog.Option).IsChoice())
}
