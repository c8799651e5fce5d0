# processing_bench (tests/bench/processing.sh), run by hand, never by ctest.
# Build it in a Release tree: cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release
pkg_check_modules(GUMBO IMPORTED_TARGET gumbo)
if(GUMBO_FOUND)
  # processing_bench: page processing vs gumbo's parse (processing.sh).
  add_executable(processing_bench ${CMAKE_CURRENT_LIST_DIR}/processing_bench.cc)
  target_link_libraries(processing_bench PRIVATE crawl_fetcher PkgConfig::GUMBO)
  crawl_warnings(processing_bench)
else()
  message(STATUS "libgumbo-dev not found: processing_bench is not built")
endif()
