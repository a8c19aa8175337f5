import PBCommandLine

#if canImport(Glibc)
  import Glibc
#endif

exit(PB.main())
