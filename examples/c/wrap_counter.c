/* Safe: an unsigned char counter wraps from 255 to 0, so after 300 increments it is 44. */
void reach_error(void) {}
int main(void) {
  unsigned char c = 0;
  int i;
  for (i = 0; i < 300; i++) {
    c++;
  }
  if (c != 44) reach_error();
  return 0;
}
