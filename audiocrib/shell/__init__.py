"""The speaking keyboard shell: the screens a player knows (menus, the table, practice, keeping files), the
`Table` it plays at, and the prompt_toolkit application that reads the keys and prints each line once."""
