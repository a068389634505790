/* Bug: case 0 falls through into case 1, so s gains 3 there, not 1; for every k the sum is
   9, never 7. */
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
  }
  if (s != 7) reach_error();
  return 0;
}
