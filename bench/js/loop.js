// A 5·10^6-iteration numeric for loop mixing integer-valued and fractional arithmetic.
// Every fraction is a multiple of 0.25 below 2^53, so the sums are exact and the checksum is an
// integer that node and codemode print the same way.
let isum = 0;
let fsum = 0;
for (let i = 1; i <= 5000000; i++) {
  isum = isum + ((i * 3) % 7) + Math.floor(i / 5);
  fsum = fsum + i * 0.5 + i / 4;
}
const checksum = isum + Math.floor(fsum);
console.log(checksum);
return checksum;
