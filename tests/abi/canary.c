/* The negative control of the ABI check (tests/abi.cmake): one function more,
   exported through a copy of src/libaltmem.map that lists it in ALTMEM_0, as an
   accidental addition to the public API would be.  abi.control_extra_export
   passes only if scripts/abi.sh check-symbols fails on it and names it. */
__attribute__((visibility("default"))) int altmem_abi_canary(void);

int altmem_abi_canary(void)
{
    return 0;
}
