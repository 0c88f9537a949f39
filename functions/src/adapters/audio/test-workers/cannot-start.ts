/** A thread for the pool's tests whose code fails as it loads (a bundle missing its worker would). */
throw new Error('This audio worker cannot start');
