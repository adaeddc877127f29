// The playground's entry (`/_/playground`, or `ninefold build --playground`). It imports nothing itself:
// a module both pages imported at start would put one page's boot in the other's first chunk.
void import('./start').then(({ boot }) => boot());
