"""The language: the AST (Fig. 1), its printing, the grammar and parser, and input errors."""
