#!/usr/bin/env python3
"""Expected freshness of uniform, proportional and optimal revisiting on
testweb's change model (docs/ARCHITECTURE.md "Change model": 20% of pages
never change, the others Poisson with mean interval M*exp(1.5 z), at least
0.5 s), with every rate known exactly: the ceiling a revisit policy can
reach. Cho and Garcia-Molina, TODS 2003: F(r, f) = (f/r)(1 - e^(-r/f));
optimal: dF/df = mu for each page visited, mu spending the budget.

  tests/bench/freshness_theory.py [T/M ...]   (T: mean revisit interval)"""
import math
import random
import sys


def fresh(rate, f):
    if rate <= 0:
        return 1.0
    return 0.0 if f <= 0 else f / rate * (1 - math.exp(-rate / f))


def optimal_f(rate, mu):
    if rate <= 0 or mu * rate >= 1:
        return 0.0
    g = lambda x: 1 - (1 + x) * math.exp(-x)
    lo, hi = 0.0, 1.0
    while g(hi) < mu * rate:
        hi *= 2
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if g(mid) < mu * rate else (lo, mid)
    return rate / ((lo + hi) / 2)


def main():
    random.seed(1)
    mean = 40.0
    rates = [0.0 if random.random() < 0.2 else 1 / max(0.5, mean * math.exp(1.5 * random.gauss(0, 1)))
             for _ in range(4000)]
    print("| T/M | uniform (fixed) | proportional to change rate | optimal | optimal / uniform |")
    print("|---|---|---|---|---|")
    for ratio in [float(a) for a in sys.argv[1:]] or [1, 1.5, 2, 3, 5, 10, 20]:
        budget = 1 / (ratio * mean)
        uniform = sum(fresh(r, budget) for r in rates) / len(rates)
        mean_rate = sum(rates) / len(rates)
        prop = sum(fresh(r, budget * r / mean_rate) for r in rates) / len(rates)
        lo, hi = -30.0, 30.0
        for _ in range(60):
            mid = (lo + hi) / 2
            spent = sum(optimal_f(r, math.exp(mid)) for r in rates) / len(rates)
            lo, hi = (mid, hi) if spent > budget else (lo, mid)
        mu = math.exp((lo + hi) / 2)
        opt = sum(fresh(r, optimal_f(r, mu)) for r in rates) / len(rates)
        print(f"| {ratio:g} | {uniform:.3f} | {prop:.3f} | {opt:.3f} | {opt / uniform:.2f}x |")


if __name__ == "__main__":
    main()
