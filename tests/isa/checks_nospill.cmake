# Every tk test program (tests/tk/test_*.hip, by the same glob that builds
# them): no kernel spills to scratch (sgpr/vgpr spill counts and scratch size
# all 0), so the tests exercise register-resident tiles as kernels use them.
# (test_register_ops' 64x64 f32 kernel keeps three tiles live at once: it
# declares __launch_bounds__(64), so it may use the whole register file.)
set(_tk_nospill_skip "")
file(GLOB _tk_nospill_srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/tk/test_*.hip)
foreach(_src ${_tk_nospill_srcs})
  get_filename_component(_n ${_src} NAME_WE)
  if(TARGET tk_${_n} AND NOT _n IN_LIST _tk_nospill_skip)
    tk_isa_check(NAME isa_nospill_${_n} TARGET tk_${_n} CHECKS --no-spill)
  endif()
endforeach()
