// zlib, for the simulators' gzip answers (SimulatorKit/Gzip.swift is its one importer).
#include <zlib.h>
