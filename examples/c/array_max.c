/* Safe: the maximum of an array of nondet values is at least each of them. */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int a[5];
  int i, max;
  for (i = 0; i < 5; i++) a[i] = __VERIFIER_nondet_int();
  max = a[0];
  for (i = 1; i < 5; i++) if (a[i] > max) max = a[i];
  for (i = 0; i < 5; i++) if (a[i] > max) reach_error();
  return 0;
}
