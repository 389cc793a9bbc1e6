"""The parts of benchmarks/bench_server.py: the server process, the scripted clients, one run, and the
in-process encoding costs."""
