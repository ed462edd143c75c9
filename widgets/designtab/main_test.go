package designtab_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/lockscope/lockscope/designs"
)

// TestMain installs the list of designs, both sides: no design adds itself.
func TestMain(m *testing.M) {
	if err := designs.InstallAll(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
