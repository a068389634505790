/* Safe: a switch with fall-through, break and continue inside a loop. */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 3) return 0;
  int s = 0, i;
  for (i = 0; i < 4; i++) {
    switch ((i + k) % 4) {
      case 0: s += 1;
      case 1: s += 2; break;
      case 2: continue;
      default: s += 4;
    }
    if (s > 100) break;
  }
  /* over i = 0..3, (i + k) % 4 takes each of 0..3 once: 3 + 2 + 0 + 4 */
  if (s != 9) reach_error();
  return 0;
}
