/*
 * bcryptprimitives.c: a stand-in for Windows' bcryptprimitives.dll, so that
 * .ci/package-check can run LockScope.exe under a Wine that lacks the DLL
 * (Debian 12's Wine 8.0 does). Test scaffolding only: it is built into the
 * throw-away Wine prefix of the check and never goes into the zip; every
 * Windows 10 and 11 has the real DLL.
 *
 * Why it is needed: since Go 1.24 the Windows runtime loads
 * bcryptprimitives.dll from system32 before main and throws "fatal error:
 * bcryptprimitives.dll not found" without it; its random numbers come from
 * ProcessPrng (golang/go src/runtime/os_windows.go, loadOptionalSyscalls and
 * readRandom; crypto/internal/sysrand/rand_windows.go). Later Wine releases
 * ship their own (wine-mirror/wine dlls/bcryptprimitives/main.c), and then
 * the check uses theirs.
 *
 * ProcessPrng fills a buffer with random bytes and always succeeds
 * (Microsoft's documentation, "ProcessPrng function"). Here the bytes come
 * from RtlGenRandom, exported by advapi32 as SystemFunction036, which takes
 * a 32-bit length, so a larger buffer is filled a piece at a time.
 *
 * Built by .ci/package-check:
 *   x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

/* advapi32's export; ntsecapi.h calls it RtlGenRandom. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	const SIZE_T piece = 0x80000000u; /* fits a ULONG */

	for (SIZE_T done = 0; done < size;) {
		SIZE_T n = size - done < piece ? size - done : piece;
		if (!SystemFunction036(data + done, (ULONG)n))
			return FALSE;
		done += n;
	}
	return TRUE;
}
