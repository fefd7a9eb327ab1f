"""What the server computes, from Python.

So far the RDP accountant of GAP and DP-SGD: the epsilon of `steps`
subsampled Gaussian releases, and the noise multiplier for a target epsilon.
"""

import math

from . import _ldpgraph


def _check(name, value, low, high, low_open=True):
    value = float(value)
    if not math.isfinite(value) or value < low or value > high or (low_open and value == low):
        raise ValueError("%s must be in %s%g, %g], got %r" % (name, "(" if low_open else "[", low, high, value))
    return value


def rdp_epsilon(noise_multiplier, sampling_rate, steps, delta):
    """The (epsilon, delta) of `steps` Poisson-subsampled Gaussian releases."""
    noise_multiplier = _check("noise_multiplier", noise_multiplier, 0, 1e6)
    sampling_rate = _check("sampling_rate", sampling_rate, 0, 1)
    delta = _check("delta", delta, 0, 1)
    if int(steps) != steps or steps < 0:
        raise ValueError("steps must be a non-negative integer, got %r" % (steps,))
    return _ldpgraph.rdp_epsilon(noise_multiplier, sampling_rate, int(steps), delta)


def rdp_noise_multiplier(epsilon, sampling_rate, steps, delta):
    """The smallest noise multiplier for which the releases are (epsilon, delta)-DP."""
    epsilon = _check("epsilon", epsilon, 0, 1e6)
    sampling_rate = _check("sampling_rate", sampling_rate, 0, 1)
    delta = _check("delta", delta, 0, 1)
    if int(steps) != steps or steps < 1:
        raise ValueError("steps must be a positive integer, got %r" % (steps,))
    return _ldpgraph.rdp_noise_multiplier(epsilon, sampling_rate, int(steps), delta)
