// The page's own code: call the loader's globals on click and show what comes back.
const status = document.getElementById('status');
const say = (text) => (status.textContent = text);
document.getElementById('pay').addEventListener('click', () => {
  window.getPaymentPage(12.5).then(
    (r) => say(r.status === 'succeeded' ? `Paid: ${r.transaction_id}` : 'Payment window closed'),
    (e) => say(`Error: ${e.message}`),
  );
});
document.getElementById('send').addEventListener('click', () => {
  window.sendRequestPayment(20, document.getElementById('phone').value).then(
    (r) => say(`Payment request sent to the phone ending ${r.phone_last_four}`),
    (e) => say(`Error: ${e.message}`),
  );
});
