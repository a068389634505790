/* Bug: the unsigned counter wraps (0u - 1 is UINT_MAX), so it is not negative but large;
   the check below assumes it stays small. */
extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void) {}
int main(void) {
  unsigned int budget = __VERIFIER_nondet_uint();
  unsigned int spent = 0;
  while (spent < 3) {
    budget = budget - 1;
    spent++;
  }
  if (budget > 4000000000u) reach_error();
  return 0;
}
