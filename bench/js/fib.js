// Recursive Fibonacci: function-call overhead (1.6 million calls).
// Checksum: fib(30) = 832040.
function fib(n) {
  if (n < 2) {
    return n;
  }
  return fib(n - 1) + fib(n - 2);
}

const result = fib(30);
console.log(result);
return result;
