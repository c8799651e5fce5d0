int main() { return 1; }  // replaced by the real binary in this session
