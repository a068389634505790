/* Bug: the search for the maximum skips the last cell. */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int a[5];
  int i, max;
  for (i = 0; i < 5; i++) a[i] = __VERIFIER_nondet_int();
  max = a[0];
  for (i = 1; i < 4; i++) if (a[i] > max) max = a[i];
  for (i = 0; i < 5; i++) if (a[i] > max) reach_error();
  return 0;
}
