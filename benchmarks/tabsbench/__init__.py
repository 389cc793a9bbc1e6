"""The parts of benchmarks/bench_tabs.py: a simulated browser tab (``tab``), two tabs at a table at people's pace in
client processes of their own (``clients``), the server's threads and context switches and py-spy (``server``), and
one run (``runs``)."""
