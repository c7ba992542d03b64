"""Evidence for a test lab: the RNG report (`reelforge rng-report`: ranges.py, stat_tests.py,
rng_battery.py, dieharder.py, adaptivity.py, seeding.py, rng_report.py), the certification
bundle (`reelforge certify`: certify.py, proofs.py, requirements.toml) and the manifest of
what plays a round (manifest.py, also served at the server's `GET /version`)."""
