int cli_play(int a, char **b){(void)a;(void)b;return 0;} int cli_replay(int a, char **b){(void)a;(void)b;return 0;}
