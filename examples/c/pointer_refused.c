/* Refused: pointers are outside the subset symcert reads (exit 65). */
void reach_error(void) {}
int main(void) {
  int x = 0;
  int *p = &x;
  *p = 1;
  if (x != 1) reach_error();
  return 0;
}
