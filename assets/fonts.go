package assets

import _ "embed"

// The Chinese font, cut down to the characters the window shows in Chinese
// (assets/gen/font makes it; fonts/OFL.txt is its licence). The window's
// theme puts it before Fyne's own font, so Chinese renders on a machine
// with no CJK font installed while Latin keeps Fyne's look.
var (
	//go:embed fonts/NotoSansCJKsc-Regular-subset.otf
	cjkRegular []byte
	//go:embed fonts/NotoSansCJKsc-Bold-subset.otf
	cjkBold []byte
)

// CJKFont is the regular weight of the bundled Chinese font (OpenType/CFF).
func CJKFont() []byte { return cjkRegular }

// CJKFontBold is the bold weight of the bundled Chinese font.
func CJKFontBold() []byte { return cjkBold }
