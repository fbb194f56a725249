/* Wine 8.0's bcryptprimitives.dll lacks ProcessPrng, which Rust's standard
 * library loads for its random numbers (every Windows 10 and later has
 * it): without it the game cannot start under Wine at all. This stub,
 * built with MinGW beside a copy of the game for the Wine check only
 * (.ci/windows-check) and never shipped, answers it from RtlGenRandom. */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG part = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!RtlGenRandom(data, part)) return FALSE;
        data += part;
        length -= part;
    }
    return TRUE;
}
