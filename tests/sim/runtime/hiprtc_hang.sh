#!/bin/sh
# hiprtc_hang.sh: stands in for a compiler that never finishes (hiprtc_tksim.hip).
exec sleep 120
